/** Top-up. */
const topup = {
  'topup.title': '充值',
};
export default topup;
