import { screen } from '@testing-library/react';
import { Form, Input } from 'antd';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../test/render';
import { EditPage } from './edit-page';

function Page({ loadError }: { loadError: string | null }) {
  const [form] = Form.useForm<{ name: string }>();
  return (
    <EditPage
      title="Edit"
      editor={{ form, loading: false, loadError, saving: false }}
      onFinish={() => undefined}
      backTo="/landed/list"
    >
      <Form.Item name="name" label="Name">
        <Input />
      </Form.Item>
    </EditPage>
  );
}

describe('EditPage', () => {
  it("shows the server's refusal over a disabled form, with cancel still there", () => {
    renderPage(<Page loadError="令牌不存在" />, '/token/edit/9');
    expect(screen.getByText('无法读取此记录，不能编辑')).toBeInTheDocument();
    expect(screen.getByText('令牌不存在')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(screen.getByRole('button', { name: /提\s?交/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /取\s?消/ })).toBeEnabled();
  });

  it('leaves a readable record editable', () => {
    renderPage(<Page loadError={null} />, '/token/edit/9');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Name')).toBeEnabled();
    expect(screen.getByRole('button', { name: /提\s?交/ })).toBeEnabled();
  });
});
