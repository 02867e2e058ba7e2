import about from './about';
import audit from './audit';
import channel from './channel';
import chat from './chat';
import common from './common';
import footer from './footer';
import header from './header';
import home from './home';
import log from './log';
import login from './login';
import oauth from './oauth';
import price from './price';
import redemption from './redemption';
import register from './register';
import reset from './reset';
import setting from './setting';
import settingAdmin from './settingAdmin';
import status from './status';
import token from './token';
import topup from './topup';
import user from './user';

/** Every namespace file, by namespace; a key always starts with its namespace. */
export const namespaces = {
  about,
  audit,
  channel,
  chat,
  common,
  footer,
  header,
  home,
  log,
  login,
  oauth,
  price,
  redemption,
  register,
  reset,
  setting,
  settingAdmin,
  status,
  token,
  topup,
  user,
};

const zhCN = Object.assign({}, ...Object.values(namespaces)) as Record<string, string>;
export default zhCN;
