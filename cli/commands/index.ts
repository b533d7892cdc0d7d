import type { Command } from '../context.js';
import { ownFlagsFirst } from '../help-groups.js';
import { applyGateway } from './apply-gateway.js';
import { applyIngress } from './apply-ingress.js';
import { createCluster } from './create-cluster.js';
import { deleteCluster } from './delete-cluster.js';
import { detect } from './detect.js';
import { get } from './get.js';
import { doctor } from './doctor.js';
import { checkLb } from './check-lb.js';
import { migrateIngress } from './migrate-ingress.js';
import { settings } from './settings.js';
import { version } from './version.js';

/** Every top-level command, in help order. Command files only declare flags and call one use case. */
export const commands: Command[] = [
  settings,
  detect,
  applyIngress,
  applyGateway,
  migrateIngress,
  createCluster,
  deleteCluster,
  get,
  doctor,
  checkLb,
  version,
].map(ownFlagsFirst);

