// The agent's inventories as a scan for plaintext must read them: `kubectl get configmaps -l
// gitfleet.io/inventory -o json` gives the records gzipped and base64-encoded in binaryData
// (objects.jsonl.gz), where no value could be found by searching the JSON itself; this returns
// every data value and every binaryData value unpacked (gunzipped when it is gzip), one a line.
import { gunzipSync } from 'node:zlib';

interface ConfigMapList {
  items: { data?: Record<string, string>; binaryData?: Record<string, string> }[];
}

/** Returns the inventories' contents, unpacked, from the JSON of a ConfigMap list. */
export function inventoryText(listJson: string): string {
  const { items } = JSON.parse(listJson) as ConfigMapList;
  return items
    .flatMap((item) => [
      ...Object.values(item.data ?? {}),
      ...Object.entries(item.binaryData ?? {}).map(([key, value]) => {
        const bytes = Buffer.from(value, 'base64');
        return (key.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
      }),
    ])
    .join('\n');
}
