/** Wire shapes of the management API that the console reads (server-behaviour.md section 2.7). */

/** `{ success, message, data }` answered by every /api handler. */
export type { Envelope } from '@modelgate/wire';

export interface User {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email?: string;
  github_id?: string;
  wechat_id?: string;
  lark_id?: string;
  quota?: number;
  used_quota?: number;
  request_count?: number;
  group?: string;
  aff_code?: string;
  access_token?: string;
}

/** The signed-in user as kept in local storage under `user`. */
export type SessionUser = Pick<User, 'id' | 'username' | 'display_name' | 'role' | 'status'> & Partial<User>;

export interface ServerStatus {
  system_name?: string;
  logo?: string;
  footer_html?: string;
  quota_per_unit?: number;
  display_in_currency?: boolean;
  chat_link?: string;
  top_up_link?: string;
  version?: string;
  start_time?: number;
  server_address?: string;
  email_verification?: boolean;
  turnstile_check?: boolean;
  turnstile_site_key?: string;
  github_oauth?: boolean;
  github_client_id?: string;
  lark_client_id?: string;
  wechat_login?: boolean;
  wechat_qrcode?: string;
}

export interface Token {
  id: number;
  name: string;
  key: string;
  status: number;
}

export interface RegistrationPayload {
  username: string;
  password: string;
  password2: string;
  email: string;
  verification_code: string;
  aff_code: string;
}

export interface ProfileUpdate {
  username: string;
  display_name: string;
  password: string;
  /** The current password; the server needs it to set a new one. */
  original_password?: string;
}
