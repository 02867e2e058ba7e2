import bcrypt from 'bcryptjs';

/** one-api's cost: its existing $2a$10$ hashes keep verifying and new ones stay interchangeable. */
const bcryptCost = 10;

/** Hashes a password with bcrypt (cost 10). */
export const hashPassword = (password: string): Promise<string> => bcrypt.hash(password, bcryptCost);
