import type zh from '../zh-CN/register';

const register: Record<keyof typeof zh, string> = {
  'register.title': 'Create an account',
  'register.form.username': 'Username',
  'register.form.usernamePlaceholder': 'Username, at most 12 characters',
  'register.form.usernameRequired': 'Please enter a username',
  'register.form.password': 'Password',
  'register.form.passwordPlaceholder': 'Password, 8-20 characters',
  'register.form.passwordRequired': 'Please enter a password',
  'register.form.password2': 'Repeat password',
  'register.form.password2Placeholder': 'Enter the password again',
  'register.form.password2Required': 'Please enter the password again',
  'register.form.email': 'Email',
  'register.form.emailPlaceholder': 'Email address',
  'register.form.emailInvalid': 'Please enter a valid email address',
  'register.form.code': 'Verification code',
  'register.form.codePlaceholder': 'Verification code',
  'register.form.codeRequired': 'Please enter the verification code',
  'register.getCode': 'Get code',
  'register.passwordTooShort': 'Password length must not be less than 8!',
  'register.passwordMismatch': 'The two passwords entered do not match',
  'register.submit': 'Register',
  'register.success': 'Registration successful!',
  'register.haveAccount': 'Already have an account?',
  'register.loginLink': 'Log in',
};
export default register;
