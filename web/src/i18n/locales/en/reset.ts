import type zh from '../zh-CN/reset';

const reset: Record<keyof typeof zh, string> = {
  'reset.title': 'Reset password',
  'reset.form.email': 'Email address',
  'reset.form.emailPlaceholder': 'The email address you registered with',
  'reset.submit': 'Submit',
  'reset.mailSent': 'Reset mail sent, check your mailbox!',
  'reset.backToLogin': 'Back to login',
  'reset.confirm.title': 'Confirm password reset',
  'reset.confirm.submit': 'Submit',
  'reset.confirm.done': 'Password reset done',
  'reset.confirm.newPassword': 'New password',
  'reset.confirm.clickToCopy': 'Click to copy the new password',
  'reset.confirm.copied': 'New password copied to the clipboard',
};
export default reset;
