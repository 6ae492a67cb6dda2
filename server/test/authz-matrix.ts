import { BOT_ROWS } from './authz/bots.js';
import { INVITE_ROWS } from './authz/invites.js';
import { MESSAGE_ROWS } from './authz/messages.js';
import { OPERATIONS_ROWS } from './authz/operations.js';
import { PERSONAL_ROWS } from './authz/personal.js';
import { REALM_ROWS } from './authz/realm.js';
import { SITE_ROWS } from './authz/site.js';
import { STREAM_ROWS } from './authz/streams.js';
import type { Row } from './authz/types.js';
import { USER_ROWS } from './authz/users.js';

/**
 * The authorization matrix: for every route the server registers, who may call it and what
 * everyone else gets, as the reference server decides it (DESIGN.md, style rule 17). The rows
 * live by area under ./authz/; authz-matrix.test.ts runs them and fails when a route has no row.
 */
export const MATRIX: Row[] = [
  ...MESSAGE_ROWS,
  ...STREAM_ROWS,
  ...USER_ROWS,
  ...REALM_ROWS,
  ...PERSONAL_ROWS,
  ...INVITE_ROWS,
  ...BOT_ROWS,
  ...SITE_ROWS,
  ...OPERATIONS_ROWS,
];
