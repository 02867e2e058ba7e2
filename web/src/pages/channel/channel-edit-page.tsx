import { useParams } from 'react-router';
import { PagePlaceholder } from '../../components/page-heading/page-placeholder';

/** Create (no id) or edit (with id); filled in by the console's second part. */
export default function ChannelEditPage() {
  const { id } = useParams();
  return <PagePlaceholder titleKey={id ? 'channel.edit.title' : 'channel.add.title'} />;
}
