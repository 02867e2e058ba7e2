import { defaultCompletionRatios, defaultGroupRatios, defaultModelRatios } from '../pricing/default-ratios.js';

export type OptionKind = 'bool' | 'int' | 'float' | 'string' | 'json' | 'secret';

interface OptionDefinition {
  kind: OptionKind;
  defaultValue: string;
}

const bool = (value: boolean): OptionDefinition => ({ kind: 'bool', defaultValue: String(value) });
const int = (value: number): OptionDefinition => ({ kind: 'int', defaultValue: String(value) });
const float = (value: number): OptionDefinition => ({ kind: 'float', defaultValue: String(value) });
const text = (value = ''): OptionDefinition => ({ kind: 'string', defaultValue: value });
const secret = (): OptionDefinition => ({ kind: 'secret', defaultValue: '' });
const json = (value: unknown): OptionDefinition => ({ kind: 'json', defaultValue: JSON.stringify(value) });

/**
 * Every runtime option, with one-api's key names and defaults. Secrets are write-only: they are never
 * returned by GET /api/option/ (one-api filtered by suffix and so leaked TurnstileSecretKey).
 */
export const optionDefinitions = {
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  /** Issue 32: administrators reach admin routes only once they sign in with a second factor (decision 0030). */
  AdminRequire2FA: bool(false),
  EmailVerificationEnabled: bool(false),
  GitHubOAuthEnabled: bool(false),
  OidcEnabled: bool(false),
  WeChatAuthEnabled: bool(false),
  TurnstileCheckEnabled: bool(false),
  RegisterEnabled: bool(true),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  ApproximateTokenEnabled: bool(false),
  LogConsumeEnabled: bool(true),
  DisplayInCurrencyEnabled: bool(true),
  DisplayTokenStatEnabled: bool(true),
  EmailDomainRestrictionEnabled: bool(false),
  EmailDomainWhitelist: text(
    'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
  ),
  ChannelDisableThreshold: float(5),
  SMTPServer: text(),
  SMTPPort: int(587),
  SMTPAccount: text(),
  SMTPFrom: text(),
  SMTPToken: secret(),
  Notice: text(),
  About: text(),
  HomePageContent: text(),
  Footer: text(),
  Logo: text(),
  SystemName: text('ModelGate'),
  Theme: text('default'),
  ServerAddress: text('http://localhost:3000'),
  GitHubClientId: text(),
  GitHubClientSecret: secret(),
  LarkClientId: text(),
  LarkClientSecret: secret(),
  OidcClientId: text(),
  OidcClientSecret: secret(),
  OidcWellKnown: text(),
  OidcAuthorizationEndpoint: text(),
  OidcTokenEndpoint: text(),
  OidcUserinfoEndpoint: text(),
  WeChatServerAddress: text(),
  WeChatServerToken: secret(),
  WeChatAccountQRCodeImageURL: text(),
  MessagePusherAddress: text(),
  MessagePusherToken: secret(),
  TurnstileSiteKey: text(),
  TurnstileSecretKey: secret(),
  QuotaForNewUser: int(0),
  QuotaForInviter: int(0),
  QuotaForInvitee: int(0),
  QuotaRemindThreshold: int(1000),
  PreConsumedQuota: int(500),
  ModelRatio: json(defaultModelRatios),
  CompletionRatio: json(defaultCompletionRatios),
  GroupRatio: json(defaultGroupRatios),
  TopUpLink: text(),
  ChatLink: text(),
  QuotaPerUnit: float(500000),
  // Not one-api's: USD per 1,000 web searches a Claude upstream runs for the Anthropic front (Anthropic's price).
  WebSearchPrice: float(10),
  // Not one-api's (decision 0026): the price of a model no price covers, as a flat list price in US$
  // ({"input": 3, "output": 15}); {} refuses such models. And the admin prices' revision, changed at each
  // write of the model_prices table so every node reloads it as it reloads the options.
  DefaultModelPrice: json({}),
  ModelPricesRevision: text(),
  RetryTimes: int(0),
  // Not one-api's: how long a conversation stays on its channel after its last call (0 = off); decision 0023.
  StickySessionTtlSeconds: int(3600),
  // Not one-api's: days each log type is kept, and the hourly consume rollups (0 = forever); see log-retention.ts.
  LogRetentionDaysConsume: int(0),
  LogRetentionDaysTopUp: int(0),
  LogRetentionDaysManage: int(0),
  LogRetentionDaysSystem: int(0),
  LogRetentionDaysTest: int(0),
  LogRollupRetentionDays: int(0),
  // Not one-api's (issue 31): rpm/tpm/concurrency defaults per group and per model within a group, and the
  // operator's IANA time zone, on whose day, week (from Monday) and month boundaries budgets reset.
  GroupLimits: json({}),
  TimeZone: text('UTC'),
} satisfies Record<string, OptionDefinition>;

export type OptionKey = keyof typeof optionDefinitions;

export const isOptionKey = (key: string): key is OptionKey => Object.hasOwn(optionDefinitions, key);

/**
 * one-api's ratio tables, which price only the models nothing else prices until the admin stores one
 * (decision 0026): listed empty while not stored, and an empty save puts the built-in table back.
 */
const builtInTables = new Set<string>(['ModelRatio', 'CompletionRatio']);
export const isBuiltInTable = (key: string) => builtInTables.has(key);
