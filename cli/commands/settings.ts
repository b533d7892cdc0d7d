import type { Command } from '../context.js';
import { ownFlagsFirst } from '../help-groups.js';
import { settingsImport } from './settings-import.js';
import { settingsInit } from './settings-init.js';
import { settingsSchema } from './settings-schema.js';
import { settingsShow } from './settings-show.js';
import { settingsValidate } from './settings-validate.js';

/** The settings subcommands, in help order. */
export const settingsCommands: Command[] = [settingsInit, settingsShow, settingsValidate, settingsSchema, settingsImport].map(ownFlagsFirst);

/** kaas settings <init|show|validate|schema|import> */
export const settings: Command = {
  command: 'settings <command>',
  describe: 'start, show, validate, describe and import settings',
  builder: (y) =>
    settingsCommands
      .reduce((p, c) => p.command(c as never), y)
      .example('kaas settings init --cloud mycloud --cluster demo', 'start a settings file')
      .example('kaas settings show demo', 'effective values and their origins')
      .demandCommand(1, 'name a settings command: init, show, validate, schema or import'),
  handler: () => undefined,
};
