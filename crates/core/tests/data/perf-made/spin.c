int main(void){volatile unsigned long s=0;for(unsigned long i=0;i<300000000UL;i++)s+=i*i;return (int)(s&1);}
