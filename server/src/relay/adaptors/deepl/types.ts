/** DeepL translate API wire types. https://developers.deepl.com/docs/api-reference/translate */

export interface DeeplRequest {
  text: string[];
  target_lang: string;
  source_lang?: string;
}

export interface DeeplResponse {
  translations: { detected_source_language: string; text: string }[];
}
