import { Alert, Button, Card, Flex, Form, Skeleton, type FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeading } from '../page-heading/page-heading';

export interface EditPageProps<Values> {
  title: string;
  /** The form, and the load and save states, of useRecordEditor. */
  editor: { form: FormInstance<Values>; loading: boolean; loadError?: string | null; saving: boolean };
  /** Values of an empty form (the add page's defaults). */
  initialValues?: Partial<Values>;
  /** Checks the values and hands them to the editor's save. */
  onFinish: (values: Values) => void;
  /** Where cancel goes. */
  backTo: string;
  children: ReactNode;
}

/**
 * The frame of every create/edit page: heading, a placeholder while the record loads, the form, cancel and submit.
 * When the record cannot be read, the server's reason shows above a disabled form: nothing there can be saved.
 */
export function EditPage<Values>({ title, editor, initialValues, onFinish, backTo, children }: EditPageProps<Values>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refused = Boolean(editor.loadError);
  return (
    <>
      <PageHeading title={title} />
      <Card>
        {editor.loading ? (
          <Skeleton active />
        ) : (
          <Form
            form={editor.form}
            layout="vertical"
            initialValues={initialValues}
            onFinish={onFinish}
            disabled={refused}
          >
            {refused && (
              <Alert
                type="error"
                showIcon
                style={{ marginBottom: 16 }}
                title={t('common.loadRefused')}
                description={editor.loadError}
                data-testid="load-refused"
              />
            )}
            {children}
            <Flex gap={8}>
              <Button disabled={false} onClick={() => navigate(backTo)}>
                {t('common.cancel')}
              </Button>
              <Button type="primary" htmlType="submit" loading={editor.saving}>
                {t('common.submit')}
              </Button>
            </Flex>
          </Form>
        )}
      </Card>
    </>
  );
}
