import { z } from 'zod';
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';

// Loaded once so every schema module gets `.openapi()`.
extendZodWithOpenApi(z);

export { z };
