// Makes the compiled entry point executable, so that `npm install -g .` and `npx kaas` can run it.
import { chmodSync } from 'node:fs';
chmodSync(new URL('../dist/cli/main.js', import.meta.url), 0o755);
