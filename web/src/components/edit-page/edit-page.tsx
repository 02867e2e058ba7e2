import { Button, Card, Flex, Form, Skeleton, type FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeading } from '../page-heading/page-heading';

export interface EditPageProps<Values> {
  title: string;
  /** The form, and the load and save states, of useRecordEditor. */
  editor: { form: FormInstance<Values>; loading: boolean; saving: boolean };
  /** Values of an empty form (the add page's defaults). */
  initialValues?: Partial<Values>;
  /** Checks the values and hands them to the editor's save. */
  onFinish: (values: Values) => void;
  /** Where cancel goes. */
  backTo: string;
  children: ReactNode;
}

/** The frame of every create/edit page: heading, a placeholder while the record loads, the form, cancel and submit. */
export function EditPage<Values>({ title, editor, initialValues, onFinish, backTo, children }: EditPageProps<Values>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <PageHeading title={title} />
      <Card>
        {editor.loading ? (
          <Skeleton active />
        ) : (
          <Form form={editor.form} layout="vertical" initialValues={initialValues} onFinish={onFinish}>
            {children}
            <Flex gap={8}>
              <Button onClick={() => navigate(backTo)}>{t('common.cancel')}</Button>
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
