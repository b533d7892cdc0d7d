
import { OperationError } from '../../lib/errors.js';
import { handle, type Command } from '../context.js';

/** kaas delete-cluster (being written). */
export const deleteCluster: Command = {
  command: 'delete-cluster [cluster]',
  describe: 'delete-cluster (not available yet)',
  handler: handle(async () => {
    throw new OperationError('delete-cluster is not available yet');
  }),
};
