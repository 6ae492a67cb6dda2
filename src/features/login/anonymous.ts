import { ApiConnection } from '../../api/connection';

/** Requests made without an account: the server's settings and the login itself. */
export const anonymous = new ApiConnection();
