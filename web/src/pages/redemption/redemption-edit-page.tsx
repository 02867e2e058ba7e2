import { useParams } from 'react-router';
import { PagePlaceholder } from '../../components/page-heading/page-placeholder';

/** Create (no id) or edit (with id); filled in by the console's second part. */
export default function RedemptionEditPage() {
  const { id } = useParams();
  return <PagePlaceholder titleKey={id ? 'redemption.edit.title' : 'redemption.add.title'} />;
}
