import type { Check } from './check.js';
import { CLOUD_CHECKS } from './cloud-checks.js';
import { CLUSTER_CHECKS } from './cluster-checks.js';
import { healthMonitorMissing } from './monitor-checks.js';

/**
 * Every doctor check, cloud side first (docs/troubleshooting lists them in this order). Shared by
 * `kaas doctor` (lib/doctor) and the verification after apply-ingress/apply-gateway (verify.ts), so
 * it lives below both.
 */
export const DOCTOR_CHECKS: readonly Check[] = [...CLOUD_CHECKS, ...CLUSTER_CHECKS, healthMonitorMissing];
