import { useParams } from 'react-router';
import { PagePlaceholder } from '../../components/page-heading/page-placeholder';

/** Edit a user by id (admin) or oneself (/user/edit); filled in by the console's second part. */
export default function UserEditPage() {
  const { id } = useParams();
  return <PagePlaceholder titleKey={id ? 'user.edit.title' : 'user.edit.selfTitle'} />;
}
