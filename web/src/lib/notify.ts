import type { NotificationInstance } from 'antd/es/notification/interface';
import { NARROW_SCREEN_PX } from './menu';

/** Toast durations of spec section 9, in seconds as antd wants them. */
const ToastSeconds = { success: 1.5, info: 3, error: 5, warning: 10, notice: 20 } as const;

let notificationApi: NotificationInstance | null = null;
const pending: Array<(api: NotificationInstance) => void> = [];

/** Called once by the app root with the themed notification instance from antd's App. */
export function bindNotify(api: NotificationInstance): void {
  notificationApi = api;
  for (const show of pending.splice(0)) show(api);
}

type Kind = 'success' | 'info' | 'warning' | 'error';

function show(kind: Kind, text: string, seconds: number | false, key?: string): void {
  const narrow = typeof window !== 'undefined' && window.innerWidth <= NARROW_SCREEN_PX;
  const open = (api: NotificationInstance) =>
    api[kind]({ key, title: text, duration: seconds, placement: narrow ? 'top' : 'topRight' });
  if (notificationApi) open(notificationApi);
  else pending.push(open);
}

/** The console's toasts: top-right, top-centre on narrow screens, with the spec's timeouts. */
export const notify = {
  success: (text: string) => show('success', text, ToastSeconds.success),
  info: (text: string) => show('info', text, ToastSeconds.info),
  warning: (text: string) => show('warning', text, ToastSeconds.warning),
  error: (text: string) => show('error', text, ToastSeconds.error),
  /** A long-lived notice, such as the new-version hint. */
  notice: (text: string, key?: string) => show('info', text, ToastSeconds.notice, key),
};
