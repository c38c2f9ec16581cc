/**
 * The sandbox's stand-in for https://checkout.razorpay.com/v1/checkout.js: it defines `window.Razorpay`
 * with the part of the real API the shop uses (`new Razorpay(options)`, `open()`, `close()`,
 * `on('payment.failed', cb)`, `options.handler`, `options.modal.ondismiss`) and shows a plain-DOM test
 * dialog with Pay / Fail / Cancel instead of Razorpay's payment forms.
 *
 * It finds the sandbox from its own `<script src>`, so a page on another origin can load it (the
 * checkout endpoints allow any origin); `basePath` is the fallback for a script without a src.
 * Written as plain browser JavaScript in a string: it is served as is, never run by Node.
 */
export function checkoutScript(basePath: string): string {
  return `/* Razorpay sandbox checkout: test payments only, no money moves. */
(function () {
  'use strict';
  var base = ${JSON.stringify(basePath)};
  var me = document.currentScript;
  if (me && me.src) {
    var m = /^(.*)\\/v1\\/checkout\\.js(?:[?#].*)?$/.exec(me.src);
    if (m) base = m[1];
  }
  var openDialog = null;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'style') node.style.cssText = attrs[k];
      else if (k === 'text') node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  function formatAmount(amount, currency) {
    if (typeof amount !== 'number' || !isFinite(amount)) return 'Amount as per order';
    var units = (amount / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return (!currency || currency === 'INR' ? '\\u20B9' : currency + ' ') + units;
  }

  function post(path, body) {
    return fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body)
    }).then(function (res) {
      return res.json().catch(function () { return null; }).then(function (data) {
        return { ok: res.ok, data: data };
      });
    });
  }

  function safely(fn, arg) {
    try { fn(arg); } catch (e) { console.error('Razorpay sandbox: callback threw', e); }
  }

  function Razorpay(options) {
    if (!(this instanceof Razorpay)) return new Razorpay(options);
    if (!options || !options.key) throw new Error('Razorpay sandbox: options.key is required');
    if (!options.order_id) throw new Error('Razorpay sandbox: options.order_id is required');
    this.options = options;
    this.listeners = {};
    this.dialog = null;
  }

  Razorpay.prototype.on = function (event, callback) {
    if (typeof callback === 'function') (this.listeners[event] = this.listeners[event] || []).push(callback);
    return this;
  };

  Razorpay.prototype.emit = function (event, payload) {
    (this.listeners[event] || []).forEach(function (cb) { safely(cb, payload); });
  };

  Razorpay.prototype.close = function () {
    if (!this.dialog) return;
    document.removeEventListener('keydown', this.dialog.onKey);
    this.dialog.root.remove();
    if (openDialog === this.dialog) openDialog = null;
    this.dialog = null;
  };

  Razorpay.prototype.open = function () {
    if (this.dialog) return this;
    if (openDialog) openDialog.owner.close();
    var self = this;
    var o = this.options;
    var prefill = o.prefill || {};
    var color = (o.theme && o.theme.color) || '#3399cc';
    var orderPath = '/v1/checkout/orders/' + encodeURIComponent(o.order_id);
    var payer = { key_id: o.key, email: prefill.email || undefined, contact: prefill.contact || undefined };
    var button = function (id, label, style) {
      return el('button', { type: 'button', id: id, 'data-testid': id, text: label,
        style: 'flex:1;padding:10px;border-radius:4px;font-size:15px;cursor:pointer;' + style });
    };
    var pay = button('rzp-sandbox-pay', 'Pay', 'border:0;color:#fff;background:' + color);
    var fail = button('rzp-sandbox-fail', 'Fail', 'border:1px solid #c0392b;color:#c0392b;background:#fff');
    var cancel = button('rzp-sandbox-cancel', 'Cancel', 'border:1px solid #888;color:#333;background:#fff');
    var status = el('p', { role: 'status', 'data-testid': 'rzp-sandbox-status', style: 'min-height:1.2em;margin:8px 0;color:#c0392b' });
    var root = el('div', { id: 'rzp-sandbox', 'data-testid': 'rzp-sandbox', role: 'dialog', 'aria-modal': 'true',
      'aria-labelledby': 'rzp-sandbox-title',
      style: 'position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;' +
        'background:rgba(0,0,0,.55);font:15px/1.4 system-ui,sans-serif' }, [
      el('div', { style: 'width:min(360px,92vw);background:#fff;color:#222;border-radius:8px;overflow:hidden;box-shadow:0 8px 32px rgba(0,0,0,.3)' }, [
        el('div', { style: 'padding:14px 16px;color:#fff;background:' + color }, [
          el('div', { id: 'rzp-sandbox-title', style: 'font-weight:600', text: 'Razorpay sandbox: test payment' }),
          o.name ? el('div', { 'data-testid': 'rzp-sandbox-name', text: String(o.name) }) : null,
          o.description ? el('div', { style: 'opacity:.9;font-size:13px', text: String(o.description) }) : null
        ]),
        el('div', { style: 'padding:16px' }, [
          el('div', { 'data-testid': 'rzp-sandbox-amount', style: 'font-size:24px;font-weight:600', text: formatAmount(o.amount, o.currency) }),
          el('div', { style: 'font-size:12px;color:#666', text: 'Order ' + o.order_id }),
          prefill.email || prefill.contact
            ? el('div', { style: 'font-size:13px;margin-top:6px', text: [prefill.name, prefill.email, prefill.contact].filter(Boolean).join(' \\u00B7 ') })
            : null,
          el('p', { style: 'font-size:12px;color:#666;margin:10px 0 0', text: 'No money moves: this is a test dialog. Pay succeeds, Fail declines the attempt.' }),
          status,
          el('div', { style: 'display:flex;gap:8px' }, [pay, fail, cancel])
        ])
      ])
    ]);
    var busy = function (on) { pay.disabled = fail.disabled = on; };
    var dismiss = function () {
      self.close();
      if (o.modal && typeof o.modal.ondismiss === 'function') safely(o.modal.ondismiss);
    };
    var describe = function (data) {
      return (data && data.error && data.error.description) || 'The sandbox could not be reached';
    };

    pay.addEventListener('click', function () {
      busy(true);
      status.textContent = '';
      post(orderPath + '/pay', payer).then(function (r) {
        if (!r.ok) { status.textContent = describe(r.data); busy(false); return; }
        self.close();
        if (typeof o.handler === 'function') safely(o.handler, {
          razorpay_order_id: r.data.razorpay_order_id,
          razorpay_payment_id: r.data.razorpay_payment_id,
          razorpay_signature: r.data.razorpay_signature
        });
      }, function () { status.textContent = describe(null); busy(false); });
    });
    fail.addEventListener('click', function () {
      busy(true);
      status.textContent = '';
      post(orderPath + '/fail', payer).then(function (r) {
        busy(false);
        if (!r.ok) { status.textContent = describe(r.data); return; }
        // Like Razorpay, the dialog stays open after a failure: the shopper may retry or cancel.
        status.textContent = r.data.error.description + '. Pay to try again, or Cancel.';
        self.emit('payment.failed', r.data);
      }, function () { status.textContent = describe(null); busy(false); });
    });
    cancel.addEventListener('click', dismiss);
    var onKey = function (e) { if (e.key === 'Escape') dismiss(); };
    document.addEventListener('keydown', onKey);

    this.dialog = { root: root, onKey: onKey, owner: this };
    openDialog = this.dialog;
    document.body.appendChild(root);
    pay.focus();
    return this;
  };

  window.Razorpay = Razorpay;
})();
`;
}
