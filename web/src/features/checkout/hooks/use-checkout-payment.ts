import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { notificationDismissed, notificationShown } from '@/components/notifications/notifications-slice';
import { paths } from '@/config/paths';
import { errorMessage, type ApiError } from '@/lib/api-client';
import { formatRupees } from '@/lib/money';
import { readStoredJson, storageKeys, writeStoredJson, writeStoredText } from '@/lib/storage';
import type { OrderTotals } from '@/lib/order-totals';
import {
  useCancelPaymentMutation,
  useCreatePaymentOrderMutation,
  useOpenPaymentDialogMutation,
  useRecheckProductMutation,
  useVerifyPaymentMutation,
  type OrderData,
  type PaymentResponse,
} from '../api/checkout-api';
import {
  buildOrderData,
  checkoutProblem,
  lineStockProblem,
  lookupProblem,
  parseOpenCheckout,
  type CheckoutLine,
  type OpenCheckout,
  type Problem,
  type ShippingDetails,
} from '../checkout-rules';
import { checkoutScriptUrl, loadCheckoutScript, PAYMENT_THEME_COLOR, type RazorpayFailure } from '../razorpay';

/** Idle, then processing after Pay (checking, paying, verifying), then one of the outcomes. */
export type CheckoutStatus =
  'idle' | 'checking' | 'paying' | 'verifying' | 'success' | 'cancelled' | 'failed' | 'verification-failed';

/** This browser's own unpaid checkout, as the last Pay in any of its tabs left it. */
const readOpenCheckout = (): OpenCheckout | null => parseOpenCheckout(readStoredJson(storageKeys.openCheckout));
const rememberOpenCheckout = (open: OpenCheckout | null) =>
  open ? writeStoredJson(storageKeys.openCheckout, open) : writeStoredText(storageKeys.openCheckout, null);
/** Forgets the open checkout if it is still `razorpayOrderId` (another tab may have opened a newer one). */
const forgetOpenCheckout = (razorpayOrderId: string) => {
  if (readOpenCheckout()?.razorpayOrderId === razorpayOrderId) rememberOpenCheckout(null);
};

const isApiError = (error: unknown): error is ApiError =>
  typeof error === 'object' && error !== null && 'status' in error && 'message' in error;

type PayInput = {
  lines: readonly CheckoutLine[];
  shipping: ShippingDetails;
  totals: OrderTotals;
  couponCode: string | null;
};

/**
 * Pay: the required-field rules, the re-check of every line, create-order with orderData, the payment
 * dialog, verify, then the cart is cleared (onOrderPlaced) and the buyer goes to the order's confirmation
 * page. A cancelled, failed or unverified payment keeps the cart and says so.
 */
export function useCheckoutPayment(onOrderPlaced: () => void) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [recheckProduct] = useRecheckProductMutation();
  const [createPaymentOrder] = useCreatePaymentOrderMutation();
  const [verifyPayment] = useVerifyPaymentMutation();
  const [cancelPayment] = useCancelPaymentMutation();
  const [openPaymentDialog] = useOpenPaymentDialogMutation();
  const [status, setStatus] = useState<CheckoutStatus>('idle');
  const busy = useRef(false);
  /** The 'Payment cancelled' or 'Payment failed' notice of the last attempt: withdrawn once a payment succeeds. */
  const failureNotice = useRef<string | null>(null);

  const refuse = useCallback(
    (problem: Problem, type: 'error' | 'info' = 'error') =>
      dispatch(notificationShown({ type, title: problem.title, message: problem.message })),
    [dispatch],
  );

  /** The first line the server can no longer supply, or null when every line is still available. */
  const recheckLines = useCallback(
    async (lines: readonly CheckoutLine[]): Promise<Problem | null> => {
      // Units this buyer's own unpaid checkout holds (a reload, a second tab) are theirs to buy again: the new
      // checkout replaces that one on the server, which gives them back first.
      const own = readOpenCheckout();
      for (const line of lines) {
        let product;
        try {
          product = await recheckProduct(String(line.id)).unwrap();
        } catch (error) {
          if (isApiError(error) && error.status === 404)
            return { title: 'Product not available', message: `${line.name} is no longer available` };
          return lookupProblem(line);
        }
        const problem = lineStockProblem(line, product, own);
        if (problem) return problem;
      }
      return null;
    },
    [recheckProduct],
  );

  const verify = useCallback(
    async (response: PaymentResponse, orderData: OrderData) => {
      setStatus('verifying');
      try {
        const answer = await verifyPayment({ ...response, orderData }).unwrap();
        if (!answer.success) throw { status: 400, message: answer.message ?? '' } satisfies ApiError;
        forgetOpenCheckout(response.razorpay_order_id);
        setStatus('success');
        if (failureNotice.current) dispatch(notificationDismissed(failureNotice.current));
        failureNotice.current = null;
        dispatch(
          notificationShown({
            type: 'success',
            title: 'Payment successful! Order placed.',
            message: answer.message ?? undefined,
          }),
        );
        onOrderPlaced();
        // The order's confirmation page, for guests too (My Orders needs a sign-in); a server without links: My Orders.
        void navigate(
          answer.orderToken ? paths.orderConfirmation.getHref(answer.orderToken) : paths.myOrders.getHref(),
        );
      } catch (error) {
        setStatus('verification-failed');
        // The server's message, unless it only repeats the title.
        const message = errorMessage(error, '');
        refuse({
          title: 'Payment verification failed',
          message:
            message && message !== 'Payment verification failed'
              ? message
              : 'An error occurred during payment verification',
        });
      } finally {
        busy.current = false;
      }
    },
    [dispatch, navigate, onOrderPlaced, refuse, verifyPayment],
  );

  const pay = useCallback(
    async ({ lines, shipping, totals, couponCode }: PayInput) => {
      if (busy.current) return;
      const problem = checkoutProblem(lines, shipping);
      if (problem) return void refuse(problem);
      busy.current = true;
      setStatus('checking');
      const stockProblem = await recheckLines(lines);
      if (stockProblem) {
        busy.current = false;
        setStatus('idle');
        return void refuse(stockProblem);
      }

      setStatus('paying');
      const orderData = buildOrderData(lines, shipping, totals, couponCode);
      let order;
      try {
        order = await createPaymentOrder({
          amount: totals.total,
          currency: 'INR',
          receipt: `receipt_${Date.now()}`,
          orderData,
        }).unwrap();
      } catch (error) {
        busy.current = false;
        setStatus('failed');
        // A refusal (sold out, a coupon used up, too many open checkouts, a bad field) says what is wrong.
        if (isApiError(error) && error.title) return void refuse({ title: error.title, message: error.message });
        const refusal = isApiError(error) && typeof error.status === 'number' && error.status < 500;
        return void refuse({
          title: 'Payment failed',
          message: refusal ? error.message : 'Failed to initiate payment. Please try again.',
        });
      }

      rememberOpenCheckout({
        razorpayOrderId: order.id,
        lines: orderData.items.map((i) => ({ productId: String(i.productId), size: i.size, quantity: i.quantity })),
        createdAt: new Date().toISOString(),
        expiresAt: null,
      });

      let Razorpay;
      try {
        Razorpay = await loadCheckoutScript(checkoutScriptUrl(order.key_id));
      } catch {
        busy.current = false;
        setStatus('failed');
        return void refuse({ title: 'Payment failed', message: 'Failed to initiate payment. Please try again.' });
      }

      const units = lines.reduce((sum, line) => sum + line.quantity, 0);
      try {
        const dialog = new Razorpay({
          key: order.key_id,
          amount: order.amount,
          currency: order.currency,
          name: 'Kapda',
          description: `Order of ${units} item${units === 1 ? '' : 's'}, ${formatRupees(totals.total)}`,
          order_id: order.id,
          prefill: { name: orderData.customerName, email: orderData.customerEmail, contact: orderData.customerPhone },
          theme: { color: PAYMENT_THEME_COLOR },
          handler: (response) => void verify(response, orderData),
          modal: {
            ondismiss: () => {
              // The stock goes back now, not when the hold lapses: Pay works again at once, for everyone.
              void cancelPayment({ razorpay_order_id: order.id });
              forgetOpenCheckout(order.id);
              busy.current = false;
              setStatus('cancelled');
              // Withdrawn if the buyer then pays: it must not stand beside the success on the next page.
              failureNotice.current = refuse(
                { title: 'Payment cancelled', message: 'Your cart is kept; you can pay again.' },
                'info',
              ).payload.id;
            },
          },
        });
        // The dialog stays open after a failed attempt: the shopper may pay again or cancel.
        dialog.on('payment.failed', (response: RazorpayFailure) => {
          // Released at once too; a retry in this dialog that succeeds is still placed if the stock is there.
          void cancelPayment({ razorpay_order_id: order.id });
          forgetOpenCheckout(order.id);
          setStatus('failed');
          failureNotice.current = refuse({
            title: 'Payment failed',
            message: response.error?.description || 'Payment could not be processed',
          }).payload.id;
        });
        // Until now the server held the stock briefly; from here it holds it for the whole payment.
        void openPaymentDialog({ razorpay_order_id: order.id })
          .unwrap()
          .then(({ expiresAt }) => {
            const open = readOpenCheckout();
            if (open?.razorpayOrderId === order.id) rememberOpenCheckout({ ...open, expiresAt });
          })
          .catch(() => undefined);
        dialog.open();
      } catch {
        busy.current = false;
        setStatus('failed');
        refuse({ title: 'Payment failed', message: 'Failed to initiate payment. Please try again.' });
      }
    },
    [cancelPayment, createPaymentOrder, openPaymentDialog, recheckLines, refuse, verify],
  );

  return { pay, status };
}
