/** GET /server_settings: what a login screen needs before anyone is authenticated. */
export interface ExternalAuthenticationMethod {
  name: string;
  display_name: string;
  display_icon: string | null;
  login_url: string;
  signup_url: string;
}

export interface ServerSettings {
  authentication_methods: Record<string, boolean>;
  external_authentication_methods: ExternalAuthenticationMethod[];
  service_feature_level?: number;
  zulip_feature_level?: number;
  service_version?: string;
  push_notifications_enabled: boolean;
  is_incompatible: boolean;
  email_auth_enabled: boolean;
  require_email_format_usernames: boolean;
  realm_uri?: string;
  realm_name?: string;
  realm_icon?: string;
  realm_description?: string;
  realm_web_public_access_enabled?: boolean;
  /** Parley's own additions this server offers (not part of the Zulip API), e.g. "mail_log" */
  parley_extensions?: string[];
}

/** POST /fetch_api_key */
export interface ApiKeyResponse {
  api_key: string;
  email: string;
  user_id: number;
}
