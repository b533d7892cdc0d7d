
import { OperationError } from '../../lib/errors.js';
import { handle, type Command } from '../context.js';

/** kaas detect (being written). */
export const detect: Command = {
  command: 'detect [cluster]',
  describe: 'detect (not available yet)',
  handler: handle(async () => {
    throw new OperationError('detect is not available yet');
  }),
};
