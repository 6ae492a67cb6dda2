import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { TestClient } from './client.js';
import { missingPythonModules, PYTHON, zulipSource } from './zulip-sources.js';

/**
 * The official Python bindings (the `zulip` package) against a real server, from a script this
 * test writes and runs with the system Python. The bindings are not installable here; their
 * source is found through PARLEY_PYTHON_ZULIP (the directory holding the `zulip` package), or
 * else as zulip-sources.ts finds it.
 */

const found = zulipSource('bindings');
const bindingsDir =
  process.env.PARLEY_PYTHON_ZULIP || ('dir' in found ? path.join(found.dir, 'zulip') : undefined);

function unavailable(): string | null {
  if (!bindingsDir)
    return `set PARLEY_PYTHON_ZULIP to the directory holding the zulip package (${'reason' in found ? found.reason : ''})`;
  return missingPythonModules(['zulip'], [bindingsDir]);
}
const reason = unavailable();
if (reason) console.warn(`python bindings test: ${reason}; stepping aside`);

const SCRIPT = String.raw`
import json, os, threading, time
import zulip

site = os.environ["PARLEY_SITE"]
out = {}

# Log in as the bindings allow: any client can call POST /fetch_api_key, which needs no key.
bootstrap = zulip.Client(email="hamlet@example.com", api_key="not-yet", site=site)
login = bootstrap.call_endpoint(url="fetch_api_key", method="POST",
                                request={"username": "hamlet@example.com", "password": os.environ["PARLEY_PASSWORD"]})
out["login"] = {k: login.get(k) for k in ("result", "email", "user_id")}
hamlet = zulip.Client(email="hamlet@example.com", api_key=login["api_key"], site=site, client="ParleyPythonTest")
othello = zulip.Client(email="othello@example.com", api_key=os.environ["OTHELLO_KEY"], site=site + "/")
out["feature_level"] = hamlet.feature_level

settings = hamlet.get_server_settings()
out["settings"] = {k: settings.get(k) for k in ("result", "realm_name", "zulip_feature_level", "email_auth_enabled")}
out["profile"] = {k: hamlet.get_profile().get(k) for k in ("result", "email", "role")}

out["stream_send"] = hamlet.send_message({"type": "stream", "to": "general", "topic": "python", "content": "from **python**"})
out["subject_send"] = hamlet.send_message({"type": "stream", "to": "general", "subject": "python", "content": "with subject"})
out["dm_send"] = hamlet.send_message({"type": "private", "to": ["othello@example.com"], "content": "psst"})
out["direct_send"] = hamlet.send_message({"type": "direct", "to": [int(os.environ["OTHELLO_ID"])], "content": "by id"})
out["bad_send"] = hamlet.send_message({"type": "stream", "to": "nowhere", "topic": "x", "content": "y"})

fetched = othello.get_messages({"anchor": "newest", "num_before": 10, "num_after": 0, "apply_markdown": False,
                                "narrow": [{"operator": "channel", "operand": "general"}, {"operator": "topic", "operand": "python"}]})
out["fetched"] = {"result": fetched["result"], "contents": [m["content"] for m in fetched["messages"]],
                  "found_newest": fetched["found_newest"]}
dms = othello.get_messages({"anchor": "newest", "num_before": 5, "num_after": 0, "narrow": [["dm", "hamlet@example.com"]]})
out["dm_ids"] = [m["id"] for m in dms["messages"]]

queue = othello.register(event_types=["message"])
out["register"] = {k: queue.get(k) for k in ("result", "last_event_id")}
def later():
    time.sleep(0.2)
    out["polled_send"] = hamlet.send_message({"type": "stream", "to": "general", "topic": "python", "content": "while you wait"})
sender = threading.Thread(target=later)
sender.start()
received = []
for _ in range(5):
    events = othello.get_events(queue_id=queue["queue_id"], last_event_id=-1)
    received = [e for e in events["events"] if e["type"] == "message"]
    if received:
        break
sender.join()
out["events"] = [{"id": e["message"]["id"], "sender": e["message"]["sender_email"], "content": e["message"]["content"]} for e in received]
out["deregister"] = othello.deregister(queue["queue_id"])["result"]
out["after_deregister"] = othello.get_events(queue_id=queue["queue_id"], dont_block=True).get("code")

out["subscribe"] = othello.add_subscriptions([{"name": "python bindings", "description": "made by python"}])
out["subscribed"] = [s["name"] for s in othello.get_subscriptions()["subscriptions"]]
out["unsubscribe"] = othello.remove_subscriptions(["python bindings"])
out["unsubscribe_again"] = othello.remove_subscriptions(["python bindings"])
print(json.dumps(out))
`;

describe.skipIf(reason !== null)('the official Python bindings', () => {
  let server: TestServer;
  let out: any;
  let othelloId: number;

  beforeAll(async () => {
    server = await startTestServer({ db: 'sqlite' });
    const othello = await TestClient.login(server.url, 'othello@example.com', DEMO_PASSWORD);
    othelloId = (await othello.get('/users/me')).body.user_id;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-python-'));
    fs.writeFileSync(path.join(dir, 'bindings_check.py'), SCRIPT);
    // Asynchronously: this process is also the server the script talks to.
    const { stdout } = await promisify(execFile)(PYTHON, [path.join(dir, 'bindings_check.py')], {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        PYTHONPATH: bindingsDir,
        PARLEY_SITE: server.url,
        PARLEY_PASSWORD: DEMO_PASSWORD,
        OTHELLO_KEY: othello.apiKey,
        OTHELLO_ID: String(othelloId),
      },
      timeout: 60_000,
    });
    fs.rmSync(dir, { recursive: true, force: true });
    out = JSON.parse(stdout.trim().split('\n').pop()!);
  }, 90_000);
  afterAll(() => server?.close());

  it('logs in with fetch_api_key and reads the server settings', () => {
    expect(out.login).toMatchObject({ result: 'success', email: 'hamlet@example.com' });
    expect(out.feature_level).toBe(222);
    expect(out.settings).toEqual({
      result: 'success',
      realm_name: 'Parley Demo',
      zulip_feature_level: 222,
      email_auth_enabled: true,
    });
    expect(out.profile).toEqual({ result: 'success', email: 'hamlet@example.com', role: 400 });
  });

  it('sends stream and direct messages', () => {
    for (const key of ['stream_send', 'subject_send', 'dm_send', 'direct_send'])
      expect(out[key], key).toMatchObject({ result: 'success' });
    expect(out.bad_send).toMatchObject({
      result: 'error',
      code: 'STREAM_DOES_NOT_EXIST',
      stream: 'nowhere',
    });
    expect(out.dm_ids).toEqual(expect.arrayContaining([out.dm_send.id, out.direct_send.id]));
  });

  it('fetches messages with a narrow', () => {
    expect(out.fetched.result).toBe('success');
    expect(out.fetched.contents.slice(0, 2)).toEqual(['from **python**', 'with subject']);
  });

  it('long-polls a queue and receives what another client sends', () => {
    expect(out.register).toEqual({ result: 'success', last_event_id: -1 });
    expect(out.polled_send.result).toBe('success');
    expect(out.events).toEqual([
      { id: out.polled_send.id, sender: 'hamlet@example.com', content: 'while you wait' },
    ]);
    expect(out.deregister).toBe('success');
    expect(out.after_deregister).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('subscribes and unsubscribes', async () => {
    expect(out.subscribe).toMatchObject({
      result: 'success',
      subscribed: { 'othello@example.com': ['python bindings'] },
    });
    expect(out.subscribed).toContain('python bindings');
    expect(out.unsubscribe).toMatchObject({
      result: 'success',
      removed: ['python bindings'],
      not_removed: [],
    });
    expect(out.unsubscribe_again).toMatchObject({ removed: [], not_removed: ['python bindings'] });
    const hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    expect((await hamlet.get('/get_stream_id', { stream: 'python bindings' })).status).toBe(200);
  });
});
