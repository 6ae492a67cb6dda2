/**
 * The scripts Redis runs for the shared event queues (redis-queues.ts): each change to a queue is
 * one script, so that no other process sees it half made. A queue's keys, under the prefix:
 * `q:<id>` (hash: u owner, r organization, o options, n next event id, e epoch), `q:<id>:e` (its
 * events, oldest first, each the JSON the client gets), `u:<realm>:<user>` and `p:<realm>` (sets
 * of queue ids), `accessed` (queue ids by last fetch, for the collector), `epoch`.
 */

/** Makes a queue. KEYS: queue, user's set, public set, accessed, epoch. */
const CREATE = `
local epoch = redis.call('GET', KEYS[5]) or '0'
redis.call('HSET', KEYS[1], 'u', ARGV[5], 'r', ARGV[6], 'o', ARGV[2], 'n', 0, 'e', epoch)
redis.call('SADD', KEYS[2], ARGV[1])
if ARGV[4] == '1' then redis.call('SADD', KEYS[3], ARGV[1]) end
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1])
return 1`;

/**
 * Appends events (their JSON without the opening brace) with the next ids; nothing for a queue
 * deleted meanwhile. KEYS: queue.
 */
const PUSH = `
local n = redis.call('HGET', KEYS[1], 'n')
if not n then return -1 end
local id = tonumber(n)
local list = KEYS[1] .. ':e'
for i = 1, #ARGV do
  if ARGV[i] == '}' then redis.call('RPUSH', list, '{"id":' .. id .. '}')
  else redis.call('RPUSH', list, '{"id":' .. id .. ',' .. ARGV[i]) end
  id = id + 1
end
redis.call('HSET', KEYS[1], 'n', id)
return id`;

/** Deletes a queue (its keys, and its id from the sets). Needs fields = HMGET u r, ARGV[1] = id. */
const UNLINK = `
local function unlink(key, accessed, id, fields, prefix)
  redis.call('DEL', key, key .. ':e')
  redis.call('SREM', prefix .. 'u:' .. fields[2] .. ':' .. fields[1], id)
  redis.call('SREM', prefix .. 'p:' .. fields[2], id)
  redis.call('ZREM', accessed, id)
end`;

/**
 * A fetch: checks the owner and the epoch, notes the access, drops the acknowledged events and
 * answers the rest after 'ok' (or only 'missing' or 'not-yours'). A queue made before the epoch
 * last rose may have missed events: it is deleted, and its client registers anew.
 * KEYS: queue, accessed, epoch. ARGV: id, user, last event id or '', now, prefix.
 */
const FETCH = `${UNLINK}
local fields = redis.call('HMGET', KEYS[1], 'u', 'r', 'e')
if not fields[1] then return {'missing'} end
if fields[1] ~= ARGV[2] then return {'not-yours'} end
if fields[3] ~= (redis.call('GET', KEYS[3]) or '0') then
  unlink(KEYS[1], KEYS[2], ARGV[1], fields, ARGV[5])
  return {'missing'}
end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
local list = KEYS[1] .. ':e'
if ARGV[3] ~= '' then
  local head = redis.call('LINDEX', list, 0)
  if head then
    local first = tonumber(string.match(head, '^{"id":(%-?%d+)'))
    local last = tonumber(ARGV[3])
    if first <= last then redis.call('LTRIM', list, last - first + 1, -1) end
  end
end
local events = redis.call('LRANGE', list, 0, -1)
table.insert(events, 1, 'ok')
return events`;

/**
 * Deletes a queue, if it is the user's (any user's with ''). KEYS: queue, accessed. ARGV: id,
 * user or '', prefix.
 */
const DELETE = `${UNLINK}
local fields = redis.call('HMGET', KEYS[1], 'u', 'r')
if not fields[1] then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 'missing'
end
if ARGV[2] ~= '' and fields[1] ~= ARGV[2] then return 'not-yours' end
unlink(KEYS[1], KEYS[2], ARGV[1], fields, ARGV[3])
return 'ok'`;

export const REDIS_SCRIPTS = {
  parleyCreate: { lua: CREATE, keys: 5 },
  parleyPush: { lua: PUSH, keys: 1 },
  parleyFetch: { lua: FETCH, keys: 3 },
  parleyDelete: { lua: DELETE, keys: 2 },
} as const;

type Arg = string | number;

/** The scripts as ioredis's `defineCommand` adds them to a connection (and to its pipelines). */
export interface QueueCommands {
  parleyCreate(...args: [string, string, string, string, string, ...Arg[]]): Promise<number>;
  parleyPush(queue: string, ...bodies: string[]): Promise<number>;
  parleyFetch(...args: [string, string, string, ...Arg[]]): Promise<string[]>;
  parleyDelete(...args: [string, string, ...Arg[]]): Promise<string>;
}
