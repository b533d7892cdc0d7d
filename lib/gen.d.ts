/**
 * Modules the build generates for the bundled CLI (build/generate.mjs), imported only by the *.bundle.ts
 * twins. They do not exist for tsc: the tsc-built CLI and the tests use the run-time twins.
 */
declare module 'kaas-gen:bundled' {
  /** templates/<rel> → the precompiled Handlebars spec and the variables the template reads. */
  export const TEMPLATES: Record<string, { spec: unknown; variables: string[] }>;
  /** Every other file under templates/ (<rel>), copied to dist/bundle/data/<rel>; a .yaml one also as <rel>.objects.json. */
  export const DATA: string[];
}
declare module 'kaas-gen:settings-validators' {
  import type { ValidateFunction } from 'ajv';
  /** JSON of a setting type → its value validator (ajv standalone code). */
  export const VALIDATORS: Record<string, ValidateFunction>;
}
declare module 'kaas-gen:crd-validators' {
  /** "<group>/<version>/<Kind>" → its validator's file under dist/bundle/validators/. */
  export const CRD_VALIDATORS: Record<string, string>;
}
declare module 'kaas-gen:k8s-models' {
  /** "<apiVersion>/<Kind>" → the kubernetes-models module of that kind. */
  export const MODELS: Record<string, () => Promise<Record<string, unknown>>>;
}
declare module 'kaas-gen:gateway-validators' {
  /** "<release>/<group>/<version>/<Kind>" → its validator's file under dist/bundle/validators/. */
  export const GATEWAY_VALIDATORS: Record<string, string>;
}
declare module 'kaas-gen:answer-validators' {
  import type { ValidateFunction } from 'ajv';
  /** List key of an OpenStack answer ("loadbalancers", …, "links") → the validator of one entry (ajv standalone code). */
  export const VALIDATORS: Record<string, ValidateFunction>;
}
declare module 'kaas-gen:build-info' {
  /** package.json's version and the checkout's commit (`git rev-parse HEAD`, `dirty` with uncommitted changes) at build time. */
  export const BUILD: { version: string; commit?: string; dirty?: boolean };
}
