#!/usr/bin/env perl
# A minimal arena bot in Perl, speaking the bot protocol (docs/protocol.md)
# on stdin/stdout. It leads its lowest card and passes otherwise: always
# legal, never clever. Run it with:  arena match cmd:"perl examples/perl-bot/bot.pl" random
use strict;
use warnings;
use JSON::PP;

$| = 1;    # answers must not sit in a buffer
my $json = JSON::PP->new->canonical;

while (my $line = <STDIN>) {
    next unless $line =~ /\S/;
    my $msg  = $json->decode($line);
    my $type = $msg->{type};
    my $id   = $msg->{id};
    if ($type eq 'start') {
        print $json->encode({type => 'ready', id => $id, name => 'perl-lowest', version => '1.0'}), "\n";
    }
    elsif ($type eq 'play') {
        my $view = $msg->{view};
        # The hand comes sorted from lowest to highest; leading with a single is always legal.
        my $move = defined $view->{pile} ? 'pass' : $view->{hand}[0];
        print $json->encode({type => 'move', id => $id, move => $move}), "\n";
    }
    elsif ($type eq 'exchange') {
        my @hand  = @{ $msg->{view}{hand} };
        my @cards = @hand[0 .. $msg->{count} - 1];
        print $json->encode({type => 'exchange', id => $id, cards => \@cards}), "\n";
    }
    elsif ($type eq 'quit') {
        last;
    }
    # 'end_deal' needs no answer.
}
