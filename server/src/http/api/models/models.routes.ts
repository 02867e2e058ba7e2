import type { RouteModule } from '../route-kit.js';

export const modelsRoutes: RouteModule = () => {};
