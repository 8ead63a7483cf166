// The fields of a ResourceInterpreterCustomization (config.karmada.io/v1alpha1;
// pkg/apis/config/v1alpha1/resourceinterpretercustomization_types.go and the CRD
// config.karmada.io_resourceinterpretercustomizations.yaml): the target kind and one Lua script
// per interpreter operation.
import { anyValue, object, type ObjectSchema } from './field-schema.js';
import { topLevel } from './object-meta.js';

const luaScript = object({ luaScript: anyValue });

/** CustomizationRules: the operations a customization can script. */
export const customizationRules: ObjectSchema = object({
  retention: luaScript,
  replicaResource: luaScript,
  replicaRevision: luaScript,
  statusReflection: luaScript,
  statusAggregation: luaScript,
  healthInterpretation: luaScript,
  dependencyInterpretation: luaScript,
  componentResource: luaScript,
});

/** A ResourceInterpreterCustomization document. */
export const resourceInterpreterCustomizationSchema: ObjectSchema = topLevel({
  spec: object({
    target: object({ apiVersion: anyValue, kind: anyValue }),
    customizations: customizationRules,
  }),
});
