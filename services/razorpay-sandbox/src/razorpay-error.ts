/** Razorpay's error body: `{ error: { code, description, source, step, reason, metadata, field? } }`. */
export interface RazorpayErrorBody {
  error: {
    code: 'BAD_REQUEST_ERROR' | 'SERVER_ERROR';
    description: string;
    source: string;
    step: string;
    reason: string;
    metadata: Record<string, string>;
    field?: string;
  };
}

/** A refusal the sandbox answers with Razorpay's status and error body. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    description: string,
    readonly field?: string,
  ) {
    super(description);
    this.name = 'SandboxError';
  }

  toBody(): RazorpayErrorBody {
    // Razorpay fills source/step/reason with 'NA' for API (as opposed to payment) errors.
    return {
      error: {
        code: this.status >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST_ERROR',
        description: this.message,
        source: 'NA',
        step: 'NA',
        reason: 'NA',
        metadata: {},
        ...(this.field ? { field: this.field } : {}),
      },
    };
  }
}
