/** The reference server's feature level this server implements, and the version it reports. */
export const FEATURE_LEVEL = 222;
export const SERVICE_VERSION = '8.0-parley-0.1';
