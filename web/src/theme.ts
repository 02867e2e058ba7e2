import { theme, type ThemeConfig } from 'antd';

/**
 * Light-mode colours raised to WCAG 2.1 AA (4.5:1 for text). antd's defaults miss it: its blue #1677ff reaches 4.1
 * on white (links, the selected menu entry and tab, white text on primary buttons), secondary text (45 % black) 3.4,
 * placeholders (25 %) 1.8, danger red 3.3. The ratios in the comments are on white and on the colour's own tint.
 */
const LIGHT_TOKENS: ThemeConfig['token'] = {
  // 5.4 on white, 4.8 on its selected-item tint (#e6f5ff).
  colorPrimary: '#1366d6',
  colorInfo: '#1366d6',
  colorLink: '#1366d6',
  // 5.7 (60 % black, #666 on white).
  colorTextDescription: 'rgba(0, 0, 0, 0.6)',
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  // 5.1 (#6e6e6e).
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.57)',
  // Danger buttons and texts: 5.6 (red 7; antd's #ff4d4f is 3.3).
  colorError: '#cf1322',
  // The tags' palettes are darkened in styles.css: antd does not take palette shades from the theme's tokens.
};

/** In dark mode antd's blue passes (4.5 on #141414); its secondary text (45 % white) does not (4.3). */
const DARK_TOKENS: ThemeConfig['token'] = {
  colorPrimary: '#1677ff',
  colorTextDescription: 'rgba(255, 255, 255, 0.6)',
  colorTextTertiary: 'rgba(255, 255, 255, 0.6)',
  colorTextPlaceholder: 'rgba(255, 255, 255, 0.5)',
};

/** The console's antd theme: system light or dark, rounded corners, and the contrast fixes above. */
export function consoleTheme(dark: boolean): ThemeConfig {
  return {
    algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: { borderRadius: 8, ...(dark ? DARK_TOKENS : LIGHT_TOKENS) },
    components: { Menu: { itemPaddingInline: 14 } },
  };
}
