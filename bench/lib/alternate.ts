// Contenders measured in the same run, interleaved (A B A B …) so that a burst of load from
// other work on the machine hits both sides rather than one.
import type { ContenderResult } from './report.js';
import { spread } from './stats.js';

/** One repetition's measurement. */
export interface Sample {
  ms: number;
  peakRssMiB?: number | null;
}

/** A contender: a name, a side and one repetition of its work. */
export interface Contender {
  name: string;
  side: ContenderResult['side'];
  note?: string;
  run: (rep: number) => Promise<Sample>;
}

/** Runs every contender `runs` times, alternating; returns each one's median, spread and peak memory. */
export async function alternate(opts: {
  contenders: readonly Contender[];
  runs: number;
  log: (line: string) => void;
}): Promise<ContenderResult[]> {
  const samples = opts.contenders.map(() => [] as Sample[]);
  for (let rep = 0; rep < opts.runs; rep++) {
    for (const [i, contender] of opts.contenders.entries()) {
      const sample = await contender.run(rep);
      samples[i]!.push(sample);
      const rss = sample.peakRssMiB == null ? '' : `, peak RSS ${sample.peakRssMiB} MiB`;
      opts.log(`  run ${rep + 1}/${opts.runs} ${contender.name}: ${Math.round(sample.ms)} ms${rss}`);
    }
  }
  return opts.contenders.map((c, i) => {
    const rss = samples[i]!.flatMap((s) => (s.peakRssMiB == null ? [] : [s.peakRssMiB]));
    return {
      name: c.name,
      side: c.side,
      ...spread(samples[i]!.map((s) => s.ms)),
      peakRssMiB: rss.length > 0 ? Math.max(...rss) : null,
      ...(c.note === undefined ? {} : { note: c.note }),
    };
  });
}
