import { theme } from 'antd';
import { Link } from 'react-router';
import { useSystemBrand } from './use-system-brand';

/** Logo and system name, linking home. */
export function Brand() {
  const { systemName, logo } = useSystemBrand();
  const { token } = theme.useToken();
  return (
    <Link to="/" className="brand" aria-label={systemName}>
      <img src={logo} alt="" width={32} height={32} />
      <span className="brand-name" style={{ color: token.colorText }} data-testid="system-name">
        {systemName}
      </span>
    </Link>
  );
}
