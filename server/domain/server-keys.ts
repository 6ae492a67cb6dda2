import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets of this installation, one per purpose, kept in `<dataDir>/secrets/<name>`: made on
 * first use and kept, so that every server process sharing the data directory (and every restart)
 * signs with the same one.
 */
const keys = new Map<string, Buffer>();

export function serverKey(dataDir: string, name: string): Buffer {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  let key = keys.get(file);
  if (key) return key;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) {
    // Written aside and linked into place: another process sharing the directory sees the whole
    // key or none, and the first link wins.
    const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, crypto.randomBytes(32).toString('hex'), { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (err: any) {
      if (err.code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  if (key.length < 32) throw new Error(`${file} does not hold a usable key`);
  keys.set(file, key);
  return key;
}
