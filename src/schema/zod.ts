import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Loaded once so every schema module gets `.openapi()`.
extendZodWithOpenApi(z);

export { z };
