import { chromium } from 'playwright';
import fs from 'node:fs';
const base = 'http://127.0.0.1:9995';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell', args: ['--no-sandbox', '--disable-gpu'] });
async function login(email: string) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(base + '/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('parley-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  return page;
}
const hamlet = await login('hamlet@example.com');
const othello = await login('othello@example.com');
const key = await (await fetch(base + '/api/v1/fetch_api_key', { method: 'POST', body: new URLSearchParams({ username: 'hamlet@example.com', password: 'parley-demo' }) })).json();
const streamId = (await (await fetch(base + '/api/v1/get_stream_id?stream=general', { headers: { authorization: 'Basic ' + Buffer.from('hamlet@example.com:' + key.api_key).toString('base64') } })).json()).stream_id;
const topicUrl = `${base}/narrow/channel/${streamId}-general/topic/cluster`;
await hamlet.goto(topicUrl);
await othello.goto(topicUrl);
const send = async (text: string) => {
  const box = hamlet.getByLabel('Message', { exact: true });
  await box.fill(text);
  await box.press('Enter');
};
let t = Date.now();
await send('Before the crash');
await othello.getByText('Before the crash').waitFor();
console.log('before: seen in', Date.now() - t, 'ms');
const pids = [...fs.readFileSync('/tmp/cluster.log', 'utf8').matchAll(/process (\d+): pid (\d+)/g)].map((m) => [m[1], m[2]]);
for (const victim of ['2', '3']) {
  const pid = Number(pids.filter((p) => p[0] === victim).pop()![1]);
  process.kill(pid, 'SIGKILL');
  console.log('killed process', victim, pid);
  await new Promise((r) => setTimeout(r, 300));
  t = Date.now();
  await send(`After killing process ${victim}`);
  await othello.getByText(`After killing process ${victim}`).waitFor({ timeout: 30_000 });
  console.log(`after killing ${victim}: seen in`, Date.now() - t, 'ms');
  await new Promise((r) => setTimeout(r, 2500));
}
t = Date.now();
await othello.getByLabel('Message', { exact: true }).fill('Othello answers');
await othello.getByLabel('Message', { exact: true }).press('Enter');
await hamlet.getByText('Othello answers').waitFor();
console.log('reply seen in', Date.now() - t, 'ms');
await hamlet.screenshot({ path: '/tmp/shots/cluster-hamlet.png' });
await othello.screenshot({ path: '/tmp/shots/cluster-othello.png' });
console.log('banners', await othello.getByRole('status').allInnerTexts());
await browser.close();
