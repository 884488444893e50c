// Jest setup (setupFilesAfterEnv): after each test file, every error response its served apps
// answered must have carried a `code` (see error-codes.ts).
import { observedErrorCodes } from './error-codes';

afterAll(() => {
  const { problems } = observedErrorCodes();
  if (problems.length > 0) {
    throw new Error(`error responses without a \`code\`:\n${problems.join('\n')}`);
  }
});
