import type { HttpClient } from "../../ports/http-client.js";
import type {
  DeliveryOutcome,
  NotificationDelivery,
  NotificationTransport,
} from "../../ports/notification-transport.js";

/**
 * Webhook delivery by HTTP POST of the JSON body (platform spec §6.2): 2xx delivered; 404 and 5xx retryable; other
 * 3xx and 4xx final (redirects are not followed); no response within the timeout retryable.
 */
export function httpNotificationTransport(
  fetchImpl: HttpClient = (input, init) => fetch(input, init),
): NotificationTransport {
  return {
    protocols: ["http:", "https:"],
    async deliver({ destination, body, timeoutMs }: NotificationDelivery): Promise<DeliveryOutcome> {
      let response: Response;
      try {
        response = await fetchImpl(destination.href, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(body),
          redirect: "manual",
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const timedOut = (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError";
        return {
          delivered: false,
          retryable: true,
          errorCode: "BR_0348",
          message: timedOut
            ? `no response from ${destination.origin} within ${timeoutMs / 1000} s`
            : `request to ${destination.origin} failed: ${describe(error)}`,
        };
      }
      // the body is not used; release the connection
      await response.body?.cancel().catch(() => {});
      const status = response.status;
      if (status >= 200 && status < 300) return { delivered: true, detail: `HTTP ${status}` };
      const message = `${destination.origin} answered HTTP ${status}`;
      if (status === 404) return { delivered: false, retryable: true, errorCode: "BR_0395", message };
      if (status >= 500) return { delivered: false, retryable: true, errorCode: "BR_0347", message };
      if (status >= 400) return { delivered: false, retryable: false, errorCode: "BR_0395", message };
      return { delivered: false, retryable: false, errorCode: "BR_0347", message };
    },
  };
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}
