import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { StorageKey } from '../lib/storage-keys';
import { createStore, useStore } from '../stores/create-store';
import common from './locales/zh-CN/common';
import footer from './locales/zh-CN/footer';
import header from './locales/zh-CN/header';
import type { namespaces } from './locales/zh-CN';

export const LANGUAGES = ['zh-CN', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** A texts file: every key in it starts with its name ('token.list.title'). */
export type Namespace = keyof typeof namespaces;

/** What the shell (header, footer, loading, errors) shows; the Chinese texts of these come with the initial code. */
const CORE: readonly Namespace[] = ['common', 'header', 'footer'];

type Texts = Record<string, string>;
/** Each other texts file as its own chunk, loaded with the pages that show it (routes.tsx). */
const loaders: Record<Language, Record<string, () => Promise<Texts>>> = {
  'zh-CN': import.meta.glob<Texts>(
    ['./locales/zh-CN/*.ts', '!./locales/zh-CN/index.ts', '!./locales/zh-CN/{common,footer,header}.ts'],
    { import: 'default' },
  ),
  en: import.meta.glob<Texts>(['./locales/en/*.ts', '!./locales/en/index.ts'], { import: 'default' }),
};

/**
 * antd's own texts (tables' empty text, pagination, date pickers) in the current language, loaded like a page's
 * texts: before the first page shows, and before a language switch takes effect. Until then antd speaks English.
 * English is antd's built-in default, part of its ConfigProvider in the initial code anyway: it is never a request
 * of its own, and only Chinese is loaded, only in Chinese (issue 33 point 9: en_US was a chunk of its own).
 *
 * Never undefined: antd's ConfigProvider wraps its children in a locale provider only when given a locale, so a
 * locale arriving later changed the tree's shape and remounted the whole console (header, logo and all) on its
 * first load.
 */
const antLocale = createStore<Locale>(enUS);
const antLocaleLoaders: Record<Language, () => Promise<Locale>> = {
  'zh-CN': () => import('antd/es/locale/zh_CN').then((module) => module.default),
  en: () => Promise.resolve(enUS),
};
const antLocales = new Map<Language, Locale>([['en', enUS]]);

async function loadAntLocale(language: Language): Promise<Locale> {
  const known = antLocales.get(language);
  if (known) return known;
  const locale = await antLocaleLoaders[language]();
  antLocales.set(language, locale);
  return locale;
}

/** antd's texts for the ConfigProvider (app.tsx). */
export const useAntLocale = (): Locale => useStore(antLocale);

/** The namespaces asked for so far: a language switch loads each of them in the new language first. */
const wanted = new Set<Namespace>(CORE);
/** `language/namespace` of every texts file added to i18next. */
const loaded = new Set<string>(CORE.map((namespace) => `zh-CN/${namespace}`));

/** Chinese is the default; English is remembered once chosen. */
export function storedLanguage(): Language {
  return localStorage.getItem(StorageKey.language) === 'en' ? 'en' : 'zh-CN';
}

let initialised = false;

/**
 * Initialises i18next with the shell's Chinese texts; keys are flat and dotted ('login.form.username'). Unit
 * tests add every text at once (vitest.setup.ts).
 */
export function initI18n(): typeof i18n {
  if (initialised) return i18n;
  initialised = true;
  void i18n.use(initReactI18next).init({
    lng: 'zh-CN',
    fallbackLng: 'zh-CN',
    resources: { 'zh-CN': { translation: { ...common, ...header, ...footer } } },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  return i18n;
}

async function loadTexts(language: Language, namespaces: Iterable<Namespace>): Promise<void> {
  await Promise.all(
    [...namespaces].map(async (namespace) => {
      const id = `${language}/${namespace}`;
      const load = loaders[language][`./locales/${id}.ts`];
      if (loaded.has(id) || !load) return;
      i18n.addResourceBundle(language, 'translation', await load(), true, true);
      loaded.add(id);
    }),
  );
}

/**
 * The language startI18n is starting in, until i18next has switched to it: a page preloaded meanwhile (routes.tsx,
 * preloadRoute) loads its texts in that language.
 */
let startingLanguage: Language | null = null;

const currentLanguage = (): Language => startingLanguage ?? (i18n.language === 'en' ? 'en' : 'zh-CN');

/** Loads the texts of a page, and antd's, in the current language; the route waits for them with the page's code. */
export async function loadNamespaces(namespaces: readonly Namespace[]): Promise<void> {
  for (const namespace of namespaces) wanted.add(namespace);
  const language = currentLanguage();
  const [locale] = await Promise.all([loadAntLocale(language), loadTexts(language, namespaces)]);
  if (currentLanguage() === language) antLocale.set(locale);
}

export async function changeLanguage(language: Language): Promise<void> {
  const [locale] = await Promise.all([loadAntLocale(language), loadTexts(language, wanted)]);
  antLocale.set(locale);
  await i18n.changeLanguage(language);
  localStorage.setItem(StorageKey.language, language);
  document.documentElement.lang = language;
}

/** Starts i18n in the remembered language before the first render. */
export async function startI18n(): Promise<void> {
  initI18n();
  const language = storedLanguage();
  startingLanguage = language;
  await loadTexts(language, wanted);
  await i18n.changeLanguage(language);
  startingLanguage = null;
  document.documentElement.lang = language;
}
