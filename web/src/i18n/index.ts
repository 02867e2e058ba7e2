import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { StorageKey } from '../lib/storage-keys';
import zhCN from './locales/zh-CN';

export const LANGUAGES = ['zh-CN', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Chinese is the default; English is remembered once chosen. */
export function storedLanguage(): Language {
  return localStorage.getItem(StorageKey.language) === 'en' ? 'en' : 'zh-CN';
}

let initialised = false;

/** Initialises i18next with the Chinese texts bundled; keys are flat and dotted ('login.form.username'). */
export function initI18n(): typeof i18n {
  if (initialised) return i18n;
  initialised = true;
  void i18n.use(initReactI18next).init({
    lng: 'zh-CN',
    fallbackLng: 'zh-CN',
    resources: { 'zh-CN': { translation: zhCN } },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  return i18n;
}

/** Loads the English texts on demand; they are a separate chunk. */
async function ensureLanguage(language: Language): Promise<void> {
  if (language !== 'en' || i18n.hasResourceBundle('en', 'translation')) return;
  const { default: en } = await import('./locales/en');
  i18n.addResourceBundle('en', 'translation', en);
}

export async function changeLanguage(language: Language): Promise<void> {
  await ensureLanguage(language);
  await i18n.changeLanguage(language);
  localStorage.setItem(StorageKey.language, language);
  document.documentElement.lang = language;
}

/** Starts i18n in the remembered language before the first render. */
export async function startI18n(): Promise<void> {
  initI18n();
  const language = storedLanguage();
  await ensureLanguage(language);
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
}
