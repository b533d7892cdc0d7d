import { checkBooleanFlags } from '../../../cli/strict-booleans.js';

const table = { boolean: ['dry-run', 'yes', 'color'], alias: { yes: ['y'], 'dry-run': ['dryRun'] } };
const run = (argv: string[]) => {
  try {
    checkBooleanFlags(argv, table);
    return 'ok';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('checkBooleanFlags: a yes/no flag takes exactly true/false or no value', () => {
  it.each([
    [['--dry-run'], 'ok'],
    [['--dry-run=true'], 'ok'],
    [['--dry-run=false'], 'ok'],
    [['--no-color'], 'ok'],
    [['--no-color=true'], 'ok'],
    [['-y'], 'ok'],
    [['--', '--dry-run=yes'], 'ok'],
    [['--cloud=yes'], 'ok'],
    [['--dry-run', '--dry-run=true'], 'ok'],
    [['--dry-run=yes'], '--dry-run=yes: a yes/no flag takes no value, or exactly =true or =false'],
    [['--dry-run=TRUE'], '--dry-run=TRUE: a yes/no flag takes no value, or exactly =true or =false'],
    [['--dry-run='], '--dry-run=: a yes/no flag takes no value, or exactly =true or =false'],
    [['--dryRun=0'], '--dryRun=0: a yes/no flag takes no value, or exactly =true or =false'],
    [['-y=1'], '-y=1: a yes/no flag takes no value, or exactly =true or =false'],
    [['--no-color=no'], '--no-color=no: a yes/no flag takes no value, or exactly =true or =false'],
    [['--dry-run', '--no-dry-run'], '--dry-run and --no-dry-run contradict each other'],
    [['--dry-run=false', '--dry-run'], '--dry-run=false and --dry-run contradict each other'],
    [['--dry-run=yes', '--yes=no'], 'yes/no flags with values kaas cannot read'],
  ])('%j -> %s', (argv, said) => {
    expect(run(argv)).toBe(said);
  });
});
