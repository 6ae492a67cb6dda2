import { expect } from 'vitest';
import { drain } from './client.js';
import { OpenApiSpec, skipTestWithoutSpec, specAvailable } from './openapi.js';

/** Shared checks for the people tests (users, groups, profile fields, presence, muting). */
export { drain };

const spec = specAvailable ? OpenApiSpec.load() : null;

/**
 * Stream events at the feature level this server implements (222): created streams lack fields
 * upstream added later, and deleted ones still carry whole stream objects (upstream level 343
 * cut them down to the id).
 */
const STREAM_EVENT_ALLOW = [
  'can_subscribe_group',
  'folder_id',
  'is_recently_active',
  'subscriber_count',
  'name',
  'description',
  'rendered_description',
  'date_created',
  'creator_id',
  'invite_only',
  'is_web_public',
  'stream_post_policy',
  'is_announcement_only',
  'message_retention_days',
  'history_public_to_subscribers',
  'first_message_id',
  'can_remove_subscribers_group',
  'stream_weekly_traffic',
  'is_archived',
];

/** Every event matches its variant in the upstream description (the test is skipped without it). */
export function expectEventsMatchSpec(events: any[]) {
  // No events would pass the loop below without checking anything.
  expect(events.length, 'events to check against the spec').toBeGreaterThan(0);
  if (!spec) return skipTestWithoutSpec('events against their upstream schemas');
  for (const e of events) {
    const allow = e.type === 'stream' ? STREAM_EVENT_ALLOW : [];
    expect(spec.validateEvent(e, allow), JSON.stringify(e).slice(0, 800)).toEqual([]);
  }
}

/** A response matches the upstream schema of its operation and status (skipped without it). */
export function expectResponseMatchesSpec(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  r: { status: number; body: unknown },
) {
  if (!spec) return skipTestWithoutSpec(`${method} ${path} against its upstream schema`);
  const errors = spec.validateResponse(method, path, r.status, r.body);
  // Asking for a schema upstream does not have would otherwise check nothing.
  expect(errors, `upstream has a schema for ${method} ${path} ${r.status}`).not.toBeNull();
  expect(errors, JSON.stringify(r.body).slice(0, 800)).toEqual([]);
}

/** An error body matches upstream's generic coded error (some operations list identical variants). */
export function expectCodedErrorMatchesSpec(body: unknown) {
  if (!spec) return skipTestWithoutSpec("an error against upstream's CodedError");
  expect(spec.validateComponent('CodedError', body), JSON.stringify(body)).toEqual([]);
}

/** An error in the envelope, with the code and (a part of) the message expected. */
export function expectError(r: { status: number; body: any }, code: string, msg?: string | RegExp) {
  expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400);
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
  expect(r.body.result).toBe('error');
  expect(r.body.code).toBe(code);
  if (typeof msg === 'string') expect(r.body.msg).toBe(msg);
  else if (msg) expect(r.body.msg).toMatch(msg);
}
