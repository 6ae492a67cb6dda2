import fs from 'node:fs';

/** Parley's version, from package.json. */
export function parleyVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}
