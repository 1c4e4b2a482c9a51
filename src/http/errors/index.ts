export {
  describeZodError,
  type FormatZodIssuesOptions,
  formatIssuePath,
  formatZodIssues,
} from "./format-zod-issues.js";
export {
  type ErrorBody,
  type ErrorResponseOptions,
  emptyResponse,
  jsonResponse,
  type OAuthErrorBody,
  type OAuthErrorCode,
  SECURITY_HEADERS,
  toErrorResponse,
  toOAuthErrorResponse,
} from "./to-error-response.js";
