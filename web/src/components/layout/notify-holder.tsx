import { notification } from 'antd';
import { useEffect } from 'react';
import { bindNotify } from '../../lib/notify';

/** Hands a themed notification instance to the module-level toasts (lib/notify), and renders their holder. */
export default function NotifyHolder() {
  const [api, holder] = notification.useNotification();
  useEffect(() => bindNotify(api), [api]);
  return holder;
}
