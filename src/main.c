/* main.c - the program's entry point. */
#include "config.h"

#include "commands.h"

int main(int argc, char **argv)
{
	return commands_main(argc, argv);
}
