/** Spark models as one-api lists them. */
export const xunfeiModels = [
  'Spark-Lite',
  'Spark-Pro',
  'Spark-Pro-128K',
  'Spark-Max',
  'Spark-Max-32K',
  'Spark-4.0-Ultra',
] as const;

const versionByModel: Record<string, string> = {
  'Spark-Lite': 'v1.1',
  'Spark-Pro': 'v3.1',
  'Spark-Pro-128K': 'v3.1-128K',
  'Spark-Max': 'v3.5',
  'Spark-Max-32K': 'v3.5-32K',
  'Spark-4.0-Ultra': 'v4.0',
};

const domainByVersion: Record<string, string> = {
  'v1.1': 'lite',
  'v2.1': 'generalv2',
  'v3.1': 'generalv3',
  'v3.1-128K': 'pro-128k',
  'v3.5': 'generalv3.5',
  'v3.5-32K': 'max-32k',
  'v4.0': '4.0Ultra',
};

const pathByVersion: Record<string, string> = { 'v3.1-128K': '/chat/pro-128k', 'v3.5-32K': '/chat/max-32k' };

/**
 * The API version of a model: the named models have fixed ones; otherwise the text after the first `-` of
 * the model name (`SparkDesk-v3.5`), else the channel's api_version, else v1.1 (one-api's order).
 */
export function sparkVersion(model: string, apiVersion: string | undefined): string {
  const known = versionByModel[model];
  if (known) return known;
  const dash = model.indexOf('-');
  if (dash !== -1 && /^v\d/.test(model.slice(dash + 1))) return model.slice(dash + 1);
  return apiVersion || 'v1.1';
}

/** The `domain` parameter of a version (`general<version>` for unknown ones). */
export const sparkDomain = (version: string) => domainByVersion[version] ?? `general${version}`;

/** The WebSocket path of a version: `/<version>/chat`, except the two long-context ones. */
export const sparkPath = (version: string) => pathByVersion[version] ?? `/${version}/chat`;

/** Domains that accept `functions`. */
export const sparkSupportsFunctions = (domain: string) => /^(generalv3|4\.0Ultra|max-32k)/.test(domain);
