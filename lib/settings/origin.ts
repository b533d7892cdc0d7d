import type { Origin } from './types.js';

/** "default", "settings/example.yaml:12 (clusters.demo)", "env KAAS_X", "flag --set x". */
export function describeOrigin(o: Origin | undefined): string {
  if (!o) return 'unset';
  switch (o.kind) {
    case 'default':
      return 'default';
    case 'file':
      return `${o.file}:${o.line}${o.section === 'cluster' ? ' (cluster section)' : ''}`;
    case 'env':
      return `env ${o.name}`;
    case 'flag':
      return `flag ${o.name}`;
  }
}
