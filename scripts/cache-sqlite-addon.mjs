// After `npm ci`: keeps the better-sqlite3 addon built here in npm's cache, in the file its
// installer (prebuild-install) looks for before it tries to download one. Where no prebuilt addon
// can be downloaded, each clean install compiles SQLite from source, about a minute on two cores;
// with this file the next clean install on the machine unpacks it instead. prebuild-install loads
// what it unpacks before accepting it, and compiles as before when the file is missing or unusable.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const addonPackage = path.join(root, 'node_modules', 'better-sqlite3');
const require = createRequire(path.join(addonPackage, 'package.json'));
const addon = 'build/Release/better_sqlite3.node';

try {
  const pkg = require('./package.json');
  const rc = require('prebuild-install/rc');
  const util = require('prebuild-install/util');
  const cached = util.cachedPrebuild(util.getDownloadUrl({ ...rc(pkg), pkg }));
  if (fs.existsSync(cached)) process.exit(0);
  if (!fs.existsSync(path.join(addonPackage, addon))) process.exit(0);
  fs.mkdirSync(path.dirname(cached), { recursive: true });
  const partial = `${cached}.${process.pid}.partial`;
  execFileSync('tar', ['-czf', partial, '-C', addonPackage, addon]);
  fs.renameSync(partial, cached);
  console.log(`kept the compiled SQLite addon for the next install: ${cached}`);
} catch (err) {
  // Only a later install's speed depends on it.
  console.log(
    `the compiled SQLite addon was not kept: ${err instanceof Error ? err.message : err}`,
  );
}
