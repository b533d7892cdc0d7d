/** Reads a file of shell assignments (NAME=value per line), as testbed.env and peer.env are written. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]] = m[2];
  }
  return out;
}

/** Whether the testbed's amphora load balancers are real (testbed.env AMPHORA=1, or region: only RegionAmphora's). */
export function realAmphorae(env: Record<string, string>): boolean {
  return env.AMPHORA === '1' || env.AMPHORA === 'region';
}

/**
 * The clouds.yaml entry whose load balancers are real amphorae when only one region's are (AMPHORA=region:
 * testbed.sh writes AMPHORA_CLOUD); undefined otherwise. A region testbed.env without it is an error.
 */
export function amphoraRegionCloud(env: Record<string, string>): string | undefined {
  if (env.AMPHORA !== 'region') return undefined;
  if (!env.AMPHORA_CLOUD) throw new Error('testbed.env says AMPHORA=region but names no AMPHORA_CLOUD (testbed.sh start writes both): start the testbed again');
  return env.AMPHORA_CLOUD;
}
