
import { OperationError } from '../../lib/errors.js';
import { handle, type Command } from '../context.js';

/** kaas apply-ingress (being written). */
export const applyIngress: Command = {
  command: 'apply-ingress [cluster]',
  describe: 'apply-ingress (not available yet)',
  handler: handle(async () => {
    throw new OperationError('apply-ingress is not available yet');
  }),
};
