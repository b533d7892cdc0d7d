
import { OperationError } from '../../lib/errors.js';
import { handle, type Command } from '../context.js';

/** kaas create-cluster (being written). */
export const createCluster: Command = {
  command: 'create-cluster [cluster]',
  describe: 'create-cluster (not available yet)',
  handler: handle(async () => {
    throw new OperationError('create-cluster is not available yet');
  }),
};
