import { AppError } from '../../lib/errors.js';

const refusal = (code: string, zh: string, en: string) => () => new AppError(code, { zh, en });

/** The account refusals, with one-api's Chinese texts and an English rendering. */
export const UserErrors = {
  registerDisabled: refusal(
    'register_disabled',
    '管理员关闭了新用户注册',
    'New user registration is disabled by the administrator',
  ),
  passwordRegisterDisabled: refusal(
    'password_register_disabled',
    '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
    'Password registration is disabled; register with a third-party account',
  ),
  emailVerificationRequired: refusal(
    'email_verification_required',
    '管理员开启了邮箱验证，请输入邮箱地址和验证码',
    'Email verification is enabled: enter your email address and the verification code',
  ),
  codeInvalid: refusal(
    'verification_code_invalid',
    '验证码错误或已过期',
    'The verification code is wrong or has expired',
  ),
  usernameTaken: refusal('username_taken', '用户名已存在', 'username already taken'),
  emailTaken: refusal('email_taken', '邮箱地址已被占用', 'This email address is already in use'),
  emailDomainNotAllowed: refusal(
    'email_domain_not_allowed',
    '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    'The domain of your email address is not on the whitelist',
  ),
  resetLinkInvalid: refusal('reset_link_invalid', '重置链接非法或已过期', 'The reset link is invalid or has expired'),
  userNotFound: refusal('user_not_found', '用户不存在', 'User not found'),
  banned: refusal('user_banned', '用户已被封禁', 'This user is banned'),
  cannotDeleteRootSelf: refusal(
    'cannot_delete_root',
    '不能删除超级管理员账户',
    'The super administrator account cannot be deleted',
  ),
  noRightToView: refusal(
    'permission_denied',
    '无权获取同级或更高等级用户的信息',
    'No permission to view a user of the same or a higher role',
  ),
  noRightToUpdate: refusal(
    'permission_denied',
    '无权更新同权限等级或更高权限等级的用户信息',
    'No permission to update a user of the same or a higher role',
  ),
  noRightToRaise: refusal(
    'permission_denied',
    '无权将其他用户权限等级提升到大于等于自己的权限等级',
    'No permission to give a user a role equal to or higher than your own',
  ),
  noRightToDelete: refusal(
    'permission_denied',
    '无权删除同权限等级或更高权限等级的用户',
    'No permission to delete a user of the same or a higher role',
  ),
  cannotCreateHigher: refusal(
    'permission_denied',
    '无法创建权限大于等于自己的用户',
    'Cannot create a user with a role equal to or higher than your own',
  ),
  cannotDisableRoot: refusal(
    'cannot_disable_root',
    '无法禁用超级管理员用户',
    'The super administrator cannot be disabled',
  ),
  cannotDeleteRoot: refusal(
    'cannot_delete_root',
    '无法删除超级管理员用户',
    'The super administrator cannot be deleted',
  ),
  cannotDemoteRoot: refusal(
    'cannot_demote_root',
    '无法降级超级管理员用户',
    'The super administrator cannot be demoted',
  ),
  cannotChangeRoot: refusal(
    'cannot_change_root',
    '无法修改超级管理员用户的角色或状态',
    'The role or status of a super administrator cannot be changed',
  ),
  onlyRootPromotes: refusal(
    'permission_denied',
    '普通管理员用户无法提升其他用户为管理员',
    'Only the root user can promote users to administrator',
  ),
  alreadyAdmin: refusal('already_admin', '该用户已经是管理员', 'This user is already an administrator'),
  alreadyCommon: refusal('already_common', '该用户已经是普通用户', 'This user is already a common user'),
  uuidCollision: refusal('retry', '请重试，系统生成的 UUID 竟然重复了！', 'Please retry: the generated UUID collided'),
  statsFailed: refusal('stats_failed', '无法获取统计信息', 'Could not read the statistics'),
  quotaNotPositive: refusal('quota_invalid', '充值额度必须大于 0', 'The top-up quota must be greater than 0'),
  originalPasswordRequired: refusal(
    'original_password_required',
    '修改密码需要输入原密码',
    'Enter your current password to change it',
  ),
  smtpNotConfigured: refusal('smtp_not_configured', 'SMTP 服务器未配置', 'SMTP server is not configured'),
  originalPasswordWrong: refusal('original_password_wrong', '原密码错误', 'The current password is wrong'),
};
